"""`python -m zadachnik`: the same command as the `zadachnik` console script."""

from zadachnik.cli import main

raise SystemExit(main())
