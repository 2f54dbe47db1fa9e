"""What other apps hear about matches (the ratings record a finish).

`match_finished` is sent with `match_id` from a database thread, outside any
transaction, when a process learns that a match finished: the process that
wrote the last move and every other one following the match, and the sweep
for a finish that no process recorded (a process died in between).  So a
receiver hears of one finish several times and must act once: claim the match
with store.claim_recording inside its own transaction.
"""

from django.dispatch import Signal

match_finished = Signal()
