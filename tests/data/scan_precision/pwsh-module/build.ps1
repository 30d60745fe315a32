<#
.SYNOPSIS
    Builds, tests and packages the Acme.Tools module.
.DESCRIPTION
    Output goes to ./out. With -Clean the output folder is removed first.
.EXAMPLE
    ./build.ps1 -Clean
.EXAMPLE
    # what -Clean does, by hand:
    Remove-Item -Recurse -Force ./out
    rm -rf ./out
#>
[CmdletBinding()]
param(
    [switch]$Clean,
    [string]$Configuration = 'Release'
)
$ErrorActionPreference = 'Stop'
$out = Join-Path $PSScriptRoot 'out'

if ($Clean -and (Test-Path $out)) {
    Remove-Item -Recurse -Force $out
}
New-Item -ItemType Directory -Force $out | Out-Null

$manifest = @'
@{
    RootModule    = 'Acme.Tools.psm1'
    ModuleVersion = '0.9.0'
}
'@
Set-Content -Path (Join-Path $out 'Acme.Tools.psd1') -Value $manifest
Copy-Item -Recurse "$PSScriptRoot/src/*" $out

Invoke-Pester -Path "$PSScriptRoot/tests" `
    -Output Detailed `
    -CI
