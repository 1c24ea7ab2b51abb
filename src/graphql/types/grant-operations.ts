// grant-operations: filled in by its owner.
