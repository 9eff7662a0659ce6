"""The web face: `dpscale serve` runs app.create_app() (FastAPI; the `web` extra)."""
