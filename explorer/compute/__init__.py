"""The compute layer: one module per view, state + shared params -> frozen screen-size results. No Qt."""
