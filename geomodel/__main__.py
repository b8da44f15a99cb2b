"""``python -m geomodel`` runs the command-line interface."""

import sys

from geomodel.cli import main

sys.exit(main())
