"""`python -m zerosum`: the same as the `zerosum` command."""

import sys

from zerosum.cli import main

sys.exit(main())
