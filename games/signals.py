"""What the write path announces after a commit, for whoever drives the table in a process.

``bot_move_due(code, due)``: a table's next bot move is due at ``due``. The bot driver of a
serving process listens; a process without one (a command, a test) ignores it, and the
sweep of a serving process finds the move in the database instead. The services send, the
driver listens: the write path never calls up into the driver.
"""

from django.dispatch import Signal

bot_move_due = Signal()
