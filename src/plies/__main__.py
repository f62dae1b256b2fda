"""Allow ``python -m plies``."""

import sys

try:
    from plies.cli.main import main

    code = main()
except KeyboardInterrupt:
    # Ctrl-C before a command installs its own handling (during the imports): no traceback.
    code = 130
sys.exit(code)
