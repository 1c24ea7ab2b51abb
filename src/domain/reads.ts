// How a domain read leaves the shape of its result to its caller. The domain decides which row
// may be read (visibility, and the not-found error otherwise) and hands over the filter; the
// caller loads that row with the fields it needs, in the one query the read costs.
export type RowLoader<Where, Row> = (where: Where) => Promise<Row | null>;
