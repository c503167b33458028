import SpatialModel
import Simulation

/// The rule engine lands with issue 4.
public enum RuleCatalog {}
