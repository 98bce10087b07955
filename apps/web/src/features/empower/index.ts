/** Nothing of this feature is used by another: its pages (pages/<key>.tsx) are found by features/pages.ts. */
export {};
