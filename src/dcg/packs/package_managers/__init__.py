"""Package registries: publishing, unpublishing, yanking and deprecating packages."""
