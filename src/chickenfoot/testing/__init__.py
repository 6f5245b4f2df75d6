"""Drivers for the tests and benchmarks, not for players: servers started in child processes
(:mod:`.launch`) and scripted clients of a running server, honest and hostile (:mod:`.clients`).

They need the ``testing`` extra (``pip install 'chickenfoot[testing]'``: aiohttp, httpx), which the
``web`` extra does not install.
"""
