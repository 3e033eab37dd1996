"""python -m explorer -> cli.main()."""

import sys

from explorer.commands.cli import main

if __name__ == "__main__":
    sys.exit(main())
