"""What the fuzzing suites share: their hypothesis profiles.

A fuzzing test runs a few hundred examples on every run of the tests (as many as its module
names) and many more when asked by hand:

    python -m pytest tests/test_fuzz_cli.py tests/test_uci_fuzz.py --hypothesis-profile=long

The profile `long` is registered by tests/conftest.py (before pytest reads the option); any
other profile (hypothesis's own `default`, or `ci` where the environment says CI) leaves each
suite at its own number of examples, derandomized on CI as hypothesis does there.
"""

from __future__ import annotations

from hypothesis import HealthCheck, settings

LONG_EXAMPLES = 10_000
"""Examples of each fuzzing test in a long run by hand (some tens of minutes each)."""

RELAXED = {
    "deadline": None,
    "suppress_health_check": [HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
}
"""A fuzzing example runs a command: no deadline (a hang is caught by the test's own
budget), and slow data generation is expected."""


def register_profiles() -> None:
    """Register the profile `long` (once)."""
    settings.register_profile("long", max_examples=LONG_EXAMPLES, **RELAXED)


def fuzzing(examples: int) -> settings:
    """The settings of a fuzzing test: `examples` examples, or the long profile's number when
    `--hypothesis-profile=long` was given."""
    if settings.get_current_profile_name() == "long":
        return settings(settings.get_profile("long"))
    return settings(max_examples=examples, **RELAXED)
