"""Allow ``python -m plies``."""

import sys

from plies.cli.main import main

sys.exit(main())
