/** The archives feature's public face: nothing another feature needs yet (its pages are found by file name). */
export {};
