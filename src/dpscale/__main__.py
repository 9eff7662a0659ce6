"""`python -m dpscale` runs the CLI."""

import sys

from dpscale.faces.cli import main

sys.exit(main())
