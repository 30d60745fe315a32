"""Remote transfer and shell packs: rsync, ssh and scp."""
