# Acme.Tools: helpers for our build agents.

function Clear-AcmeCache {
    <#
    .SYNOPSIS
        Empties the module's download cache.
    .NOTES
        Same as: rm -rf ~/.acme/cache
    #>
    [CmdletBinding(SupportsShouldProcess)]
    param()
    $cache = Join-Path $HOME '.acme/cache'
    if ($PSCmdlet.ShouldProcess($cache)) {
        Remove-Item -Recurse -Force $cache
    }
}

function Reset-AcmeCheckout {
    param([string]$Path = '.')
    Push-Location $Path
    try {
        git fetch origin
        git reset --hard origin/main
        git clean -fdx
    } finally {
        Pop-Location
    }
}

function Get-AcmeBanner {
    $text = @"
Acme build agent
  cleanup:  rm -rf ~/.acme
  reset:    git reset --hard
"@
    Write-Output $text
}

Export-ModuleMember -Function Clear-AcmeCache, Reset-AcmeCheckout, Get-AcmeBanner
