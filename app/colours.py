"""The app's colours, each named once: the text colour of each kind of message, and the pale backgrounds behind
them."""

from __future__ import annotations

RED = "#b3261e"  # a mistake, an error
GREEN = "#1b6e35"  # correct, ready
AMBER = "#8a4b00"  # not sure, a warning
GREY = "#4a4a4a"  # quiet text: a counter, a status on its way
BLUE = "#1f4f99"  # a note, out of scope, information
RED_BACKGROUND = "#fdecea"
AMBER_BACKGROUND = "#fff4e0"
BLUE_BACKGROUND = "#e8f0fe"
