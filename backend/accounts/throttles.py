from rest_framework.settings import api_settings
from rest_framework.throttling import ScopedRateThrottle


class LiveScopedRateThrottle(ScopedRateThrottle):
    """ScopedRateThrottle that reads the rates at request time.

    DRF copies DEFAULT_THROTTLE_RATES into a class attribute at import, so
    override_settings in tests (and THROTTLE_* changes) would not reach it.
    """

    @property
    def THROTTLE_RATES(self):  # noqa: N802  (DRF's attribute name)
        return api_settings.DEFAULT_THROTTLE_RATES
