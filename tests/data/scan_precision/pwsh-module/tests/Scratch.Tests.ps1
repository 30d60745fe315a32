Describe 'Clear-AcmeCache' {
    BeforeAll {
        Import-Module "$PSScriptRoot/../src/Acme.Tools.psm1" -Force
        $scratch = Join-Path ([IO.Path]::GetTempPath()) ([guid]::NewGuid())
        New-Item -ItemType Directory $scratch | Out-Null
    }
    AfterAll {
        Remove-Item -Recurse -Force $scratch
    }
    It 'removes the cache folder' {
        $env:HOME = $scratch
        Clear-AcmeCache -Confirm:$false
        Join-Path $scratch '.acme/cache' | Should -Not -Exist
    }
}
