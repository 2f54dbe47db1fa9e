"""What other apps hear about matches (the ratings record a finish).

`match_finished` is sent with `match_ids` (a list) from a database thread,
outside any transaction, when a process learns that matches finished: the
process that wrote the last move and every other one following the match
(each gathers the finishes of a moment, MATCH_FINISH_GATHER_S, into one
signal), and the sweep for finishes that no process recorded (a process died
in between).  So a receiver hears of one finish several times and must act
once: claim the matches with store.claim_recordings inside its own transaction.
"""

from django.dispatch import Signal

match_finished = Signal()
