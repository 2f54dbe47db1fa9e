"""DRF's JSON parser, hardened: a body nested deeper than the interpreter's
recursion limit is a malformed request (400 bad_message), not a server error.

json.loads raises RecursionError, not ValueError, for `[[[[...` a few
thousand levels deep; DRF's parser only turns ValueError into ParseError.
"""

from django.utils.translation import gettext as _
from rest_framework import parsers
from rest_framework.exceptions import ParseError


class JSONParser(parsers.JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError(_("JSON parse error - the body is nested too deeply.")) from None
