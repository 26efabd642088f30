"""OpenSpiel's algorithms import absl's logging, whose handler takes the stderr of the moment:
pytest's capture, during collection. Logging's configuration later shuts every handler down
(the command-line tests' uvicorn does), flushing that stream long after it was closed, and the
worker's output breaks. absl's handler is given the process's own stderr instead."""

from __future__ import annotations

import sys

from absl import logging as absl_logging

absl_logging.get_absl_handler().python_handler.setStream(sys.__stderr__)
