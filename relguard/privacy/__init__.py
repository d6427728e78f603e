"""Step 3, the mechanism: outcome probabilities, OpenDP sampling, the bounds, exact expected outcomes."""
