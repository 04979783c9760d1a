"""`python -m zadachnik`: the same command as the `zadachnik` console script."""

from .cli import main

raise SystemExit(main())
