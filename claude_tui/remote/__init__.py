"""Reading the machine the CLI runs on: this one, or another over ssh (`machine.py`)."""
