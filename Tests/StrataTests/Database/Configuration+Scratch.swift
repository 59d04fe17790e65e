import Foundation
import Strata

extension Configuration {
    /// This configuration pointed at `url` and written without syncs (`.none`): how the object layer's tests open
    /// their scratch files, which a crash never needs to survive.
    func scratch(at url: URL) -> Configuration {
        var configuration = self
        configuration.fileURL = url
        configuration.durability = .none
        return configuration
    }
}
