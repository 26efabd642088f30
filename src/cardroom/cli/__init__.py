"""The ``cardroom`` command and its terminal fronts."""
