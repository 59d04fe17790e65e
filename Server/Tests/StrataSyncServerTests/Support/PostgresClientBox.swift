// Replaced by passing PostgresClient directly.
