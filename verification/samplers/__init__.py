"""The samplers' exhaustive and certified checks against their exact pmfs."""
