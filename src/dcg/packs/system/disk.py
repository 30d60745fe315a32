"""Disks: dd to devices, mkfs, wipefs, partition table writes and shredding devices."""

from dcg.model import Pack, Rule

PACK = Pack(
    "system.disk",
    description="Disks: dd to block devices, mkfs, wipefs -a, blkdiscard, sgdisk --zap, "
    "fdisk/sfdisk/parted writes, shred of devices",
    safe=(
        r"^(?:fdisk|sfdisk|gdisk|parted)\s(?:.*\s)?(?:-l|--list|-d|--dump|--help|-V|--verify)"
        r"(?:\s|$)",
    ),
    rules=(
        Rule(
            "dd-device",
            severity="critical",
            pattern=r"^dd\s(?:.*\s)?of=/dev/(?!(?:null|zero|stdout|stderr|tty)(?:\s|$))",
            reason="dd writes raw data over a block device",
            explanation="dd of=/dev/… overwrites the device from its first byte: partition "
            "table, file systems and data. A swapped if/of or a wrong device letter destroys "
            "a disk in seconds.",
            alternative="Check the device with lsblk -f and write to an image file first; "
            "double-check if= and of=.",
            blocks=(
                "dd if=/dev/zero of=/dev/sda bs=1M",
                "dd if=ubuntu.iso of=/dev/sdb status=progress",
            ),
            allows=("dd if=/dev/sda of=disk.img bs=1M", "dd if=/dev/urandom of=/dev/null count=1"),
        ),
        Rule(
            "mkfs",
            severity="critical",
            pattern=r"^(?:mkfs(?:\.\w+)?|mke2fs|mkswap|mkntfs|mkdosfs)\s(?:.*\s)?/dev/",
            reason="mkfs creates a new, empty file system on the device",
            explanation="Formatting replaces the existing file system; the data on it becomes "
            "unreachable and is overwritten as the new file system fills.",
            alternative="Check the device with lsblk -f and blkid, and make sure it is not "
            "mounted or in use.",
            blocks=("mkfs.ext4 /dev/sdb1", "mkfs -t xfs -f /dev/nvme0n1p2", "mkswap /dev/sda3"),
            allows=("mkfs.ext4 disk.img", "blkid /dev/sdb1"),
        ),
        Rule(
            "wipe",
            severity="critical",
            pattern=r"^(?:wipefs\s(?=(?:.*\s)?(?:-[a-zA-Z]*a[a-zA-Z]*|--all)(?:\s|$))|blkdiscard\s|"
            r"sgdisk\s(?=(?:.*\s)?(?:-[a-zA-Z]*[Zzo][a-zA-Z]*|--zap-all|--zap|--clear)(?:\s|$))|"
            r"shred\s)(?:.*\s)?/dev/",
            reason="Erases signatures, partition tables or the whole contents of a device",
            explanation="wipefs -a removes every file system and partition signature, "
            "sgdisk --zap-all destroys the partition tables, blkdiscard discards every block "
            "of an SSD and shred overwrites the device; none of it can be undone.",
            alternative="Run wipefs without -a (it only lists) and check lsblk -f first.",
            blocks=(
                "wipefs -a /dev/sdb",
                "sgdisk --zap-all /dev/nvme0n1",
                "shred -n1 /dev/sdc",
                "blkdiscard /dev/nvme1n1",
            ),
            allows=("wipefs /dev/sdb", "sgdisk -p /dev/nvme0n1", "shred -u secrets.txt"),
        ),
        Rule(
            "device-variable",
            severity="high",
            # The device is the last operand (mkfs's optional block count after it); a
            # variable or substitution there is a device dcg cannot see.
            pattern=r"^(?:(?:mkfs(?:\.\w+)?|mke2fs|mkswap|mkntfs|mkdosfs|blkdiscard)\s(?:.*\s)?"
            r"|wipefs\s(?=(?:.*\s)?(?:-[a-zA-Z]*a[a-zA-Z]*|--all)(?:\s|$))(?:.*\s)?"
            r"|sgdisk\s(?=(?:.*\s)?(?:-[a-zA-Z]*[Zzo][a-zA-Z]*|--zap-all|--zap|--clear)(?:\s|$))"
            r"(?:.*\s)?)[\"']?[$`][^\s]*(?:\s+\d+)?$"
            r"|^dd\s(?:.*\s)?of=[\"']?[$`]",
            reason="formats, wipes or overwrites a device named by a variable",
            explanation="The target is a variable or command substitution whose value dcg "
            "cannot see; if it holds a disk (as ${DEV} in a provisioning script usually "
            "does), the file system on it is gone.",
            alternative="Write the device path out (after checking it with lsblk -f) so it "
            "can be checked.",
            blocks=(
                "mkfs -t ${FSTYPE} ${DMDEV}",
                'mkfs.ext4 -F "$DEV"',
                "wipefs -a $DISK",
                "dd if=/dev/zero of=$DISK bs=1M",
                "mkswap $(losetup -f)",
            ),
            allows=("mkfs -t ${FSTYPE} disk.img", "dd if=$SRC of=backup.img", "wipefs $DEV"),
        ),
        Rule(
            "partition",
            severity="high",
            pattern=r"^(?:(?:fdisk|gdisk|cfdisk|sfdisk)\s(?:.*\s)?/dev/|parted\s(?=(?:.*\s)?(?:mklabel|"
            r"mktable|rm|mkpart|resizepart)(?:\s|$))(?:.*\s)?/dev/)",
            reason="Rewrites a partition table",
            explanation="Creating a new label or removing and resizing partitions changes where "
            "file systems start and end; a mistake makes them unmountable.",
            alternative="Back up the table first (sfdisk -d /dev/X > table.txt) and check lsblk.",
            blocks=("fdisk /dev/sda", "parted -s /dev/sdb mklabel gpt", "sfdisk /dev/sdc"),
            allows=("fdisk -l /dev/sda", "parted /dev/sdb print", "sfdisk -d /dev/sdc"),
        ),
    ),
)
