"""Serving tables on several processes: nginx routing by table (``routing.py``) and the
supervisor of ``umbra serve --processes N`` (``cluster.py``)."""
