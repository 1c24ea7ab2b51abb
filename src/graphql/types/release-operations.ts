// release-operations: filled in by its owner.
