"""Shared test settings: no Hypothesis deadline, since a per-example time limit is a timed test on a noisy machine."""

from hypothesis import settings

settings.register_profile("dpscale", deadline=None)
settings.load_profile("dpscale")
