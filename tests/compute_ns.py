"""The compute layer's public names in one namespace, for tests written against the old flat modules
(`compute.heatmap(...)`, `ce.offset(...)`, `ct.tokens(...)`): each name comes from its view's module."""

from explorer.compute.alibi import *  # noqa: F401,F403
from explorer.compute.conventions import *  # noqa: F401,F403
from explorer.compute.curves import *  # noqa: F401,F403
from explorer.compute.distance import *  # noqa: F401,F403
from explorer.compute.frequencies import *  # noqa: F401,F403
from explorer.compute.heatmap import *  # noqa: F401,F403
from explorer.compute.learned import *  # noqa: F401,F403
from explorer.compute.learned import _learned  # noqa: F401
from explorer.compute.offset import *  # noqa: F401,F403
from explorer.compute.precision import *  # noqa: F401,F403
from explorer.compute.rope import *  # noqa: F401,F403
from explorer.compute.screen import *  # noqa: F401,F403
from explorer.compute.similarity import *  # noqa: F401,F403
from explorer.compute.tokens import *  # noqa: F401,F403
