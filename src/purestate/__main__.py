"""``python -m purestate``."""

from purestate.cli import main

main()
