"""The two kinds of draw failure: the user's (a clear Spanish message) and ours (a bug).

As in Tabbycat's ``DrawUserError`` / ``DrawFatalError``: the first is shown to the mesa de control
as it is; the second means an invariant of the generator broke and must be reported, never hidden.
"""


class DrawError(Exception):
    """Base class of every error raised by ``torneo.draws``."""


class DrawUserError(DrawError, ValueError):
    """The draw cannot be made from this input (a pair listed twice, too few pairs...).

    The message is in Spanish and names the offending value, so it can be shown to the user.
    """


class DrawFatalError(DrawError, RuntimeError):
    """An internal invariant failed: this is a bug in the generator, not a user mistake."""
