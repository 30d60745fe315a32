"""NuGet: pushing and deleting (unlisting) packages with dotnet nuget or nuget.exe."""

from dcg.model import Pack, Rule

_NUGET = r"^(?:dotnet\snuget|nuget)\s"

PACK = Pack(
    "package_managers.nuget",
    description="NuGet: package delete/unlist and push",
    rules=(
        Rule(
            "delete",
            severity="high",
            pattern=_NUGET + r"delete\b",
            reason="nuget delete removes (on nuget.org: unlists) a package version",
            explanation="On private feeds the version is deleted and restores that need it "
            "fail; on nuget.org it is unlisted, hidden from search and new installs.",
            alternative="Publish a fixed version and deprecate the old one on the feed.",
            blocks=(
                "dotnet nuget delete MyLib 1.0.0 --source https://api.nuget.org/v3/index.json "
                "--non-interactive",
                "nuget delete MyLib 2.1.0 -Source MyFeed",
            ),
            allows=("dotnet nuget list source", "dotnet nuget locals all --list"),
        ),
        Rule(
            "push",
            severity="medium",
            pattern=_NUGET + r"push\b",
            reason="nuget push publishes a package version",
            explanation="The version becomes available to every consumer of the feed and, on "
            "nuget.org, can never be replaced or truly deleted.",
            alternative="Push to a test feed first and inspect the .nupkg.",
            blocks=(
                "dotnet nuget push bin/Release/MyLib.1.0.0.nupkg --source nuget.org --api-key $KEY",
                "nuget push MyLib.1.0.0.nupkg -Source https://api.nuget.org/v3/index.json",
            ),
            allows=("dotnet pack -c Release", "dotnet nuget verify MyLib.1.0.0.nupkg"),
        ),
    ),
)
