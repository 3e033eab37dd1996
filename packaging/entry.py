"""Entry point of the frozen program: the same command line as `pe-explorer` (explorer.commands.cli.main).

`--self-test` alone is answered here directly too, so a frozen build can always check itself,
whatever state the command-line parser is in.
"""

import multiprocessing
import sys

if __name__ == "__main__":
    multiprocessing.freeze_support()
    if sys.argv[1:] == ["--self-test"]:
        from explorer.commands.selftest import run_self_test

        sys.exit(run_self_test())
    from explorer.commands.cli import main

    sys.exit(main())
