"""Sources of the scaling efficiency E(d): constant, laws, fits, predictions, measurements.

Depends on `dpscale.formulas` and `dpscale.catalog`; never on `dpscale.faces`.
"""
