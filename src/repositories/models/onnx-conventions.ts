/**
 * What every ONNX model the converters write has in common, kept in one place so that the converters cannot drift
 * apart. IR version 8 is the one that goes with opset 17.
 */
export const ONNX_OPSET_VERSION = 17;
export const ONNX_IR_VERSION = 8;

/** Name of the one input of every converted model (its layout and range are each converter's own). */
export const CONVERTED_INPUT_NAME = 'image';
