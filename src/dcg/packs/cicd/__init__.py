"""CI/CD systems: GitHub Actions, GitLab CI, Jenkins and CircleCI."""
