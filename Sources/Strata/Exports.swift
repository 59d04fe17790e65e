import StrataStorage

/// Every failure Strata reports. See `StrataStorage.StrataError`.
public typealias StrataError = StrataStorage.StrataError
