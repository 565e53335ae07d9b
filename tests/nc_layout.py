"""What netCDF4 sees in a results file, to compare two files (tests of the writers that
bypass xarray: results.ResultsTable.write, system_run.SystemResults.write)."""

from __future__ import annotations


def netcdf_layout(path) -> dict:
    """Everything netCDF4 sees in a file: per group (the root, then its groups in order,
    depth first) its dimensions, per variable its type, dimensions, attributes (with their
    types), chunking and values, and the group's attributes."""
    import netCDF4

    def attrs(obj):
        return [(k, type(obj.getncattr(k)).__name__, repr(obj.getncattr(k)))
                for k in obj.ncattrs()]

    def group(g) -> dict:
        return {"dims": [(d.name, d.size) for d in g.dimensions.values()],
                "vars": [(n, str(v.dtype), v.dimensions, attrs(v), v.chunking(),
                          repr(v[...].tolist())) for n, v in g.variables.items()],
                "attrs": attrs(g),
                "groups": [(name, group(c)) for name, c in g.groups.items()]}

    with netCDF4.Dataset(path) as nc:
        return {"format": nc.data_model, **group(nc)}
