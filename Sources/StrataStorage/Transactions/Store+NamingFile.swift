extension Store {
    /// Runs `body`, making any error it throws name this store's file (`StrataError.inFile`): the table layer's
    /// errors do not know it.
    package func namingFile<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as StrataError {
            throw error.inFile(path)
        }
    }
}
