"""Batch jobs composed from the library (source -> transform -> sink), installed as
``mjfast.pipelines``. No rule logic lives here: see the pipelines issue."""
