"""`python -m tokenjuice`."""

import sys

from tokenjuice.entry import main

sys.exit(main())
