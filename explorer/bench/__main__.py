"""python -m explorer.bench: see explorer.bench."""

from explorer.bench import main

raise SystemExit(main())
