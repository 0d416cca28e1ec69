"""Every firmware file must compile with mpy-cross for the ESP32."""

import tempfile

import compile_check


def test_there_are_firmware_files():
    assert len(compile_check.firmware_files()) > 0


def test_every_firmware_file_compiles_for_xtensawin():
    with tempfile.TemporaryDirectory() as out:
        assert compile_check.compile_all(out) == []
