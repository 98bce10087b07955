/** The audit feature's public face: nothing another feature needs (its pages are found by file name). */
export {};
