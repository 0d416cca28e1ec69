"""The trained CardNet (train.py) as a TensorFlow.js layers model: the page's runtime, a
small fraction of onnxruntime-web's size (the bench's camera_bytes row).

    topology, specs, data = layers_model(net)

topology is the Keras-style description tf.loadLayersModel reads, specs the weights'
names, shapes and types in the order of data (float32, little-endian). The page feeds the
boxes channels-last (N x H x W x 3) scaled as CardNet scales them, (x - 0.5) * 4, and gets
the probabilities of the classes. What changes on the way:

- each batch norm is folded into the convolution before it (the model runs in eval mode);
- PyTorch pads a convolution by 1 on every side, also with stride 2 on an even size, where
  Keras's "same" pads 0 before and 1 after: an explicit ZeroPadding2D and "valid" keep
  PyTorch's arithmetic;
- weights go from PyTorch's (out, in, kh, kw) to Keras's (kh, kw, in, out), and the linear
  layer's inputs from PyTorch's channels-first flattening to Keras's channels-last one.
"""

import numpy as np
from torch import nn


def _folded(conv, bn):
    w = conv.weight.detach().numpy().astype(np.float64)
    scale = (bn.weight / (bn.running_var + bn.eps).sqrt()).detach().numpy()
    bias = bn.bias.detach().numpy() - bn.running_mean.detach().numpy() * scale
    if conv.bias is not None:
        bias = bias + conv.bias.detach().numpy() * scale
    return w * scale[:, None, None, None], bias


def layers_model(net, in_h, in_w, name="cards"):
    mods = list(net.features)
    out = []  # (layer config, [weights])
    i = 0
    h, w, c = in_h, in_w, 3
    n = 0
    while i < len(mods):
        m = mods[i]
        if isinstance(m, nn.Conv2d):
            bn = mods[i + 1]
            kernel, bias = _folded(m, bn)
            pad = m.padding[0]
            stride = m.stride[0]
            n += 1
            pad_cfg = {"name": "pad%d" % n, "padding": [[pad, pad], [pad, pad]],
                       "data_format": "channels_last"}
            if not out:  # the first layer says the input's shape
                pad_cfg["batch_input_shape"] = [None, in_h, in_w, 3]
                pad_cfg["dtype"] = "float32"
            out.append(({"class_name": "ZeroPadding2D", "config": pad_cfg}, []))
            out.append(({"class_name": "Conv2D", "config": {
                "name": "conv%d" % n, "filters": int(kernel.shape[0]),
                "kernel_size": [int(kernel.shape[2]), int(kernel.shape[3])],
                "strides": [stride, stride], "padding": "valid",
                "data_format": "channels_last", "dilation_rate": [1, 1],
                "activation": "relu", "use_bias": True}},
                [("conv%d/kernel" % n, kernel.transpose(2, 3, 1, 0)),
                 ("conv%d/bias" % n, bias)]))
            h = (h + 2 * pad - kernel.shape[2]) // stride + 1
            w = (w + 2 * pad - kernel.shape[3]) // stride + 1
            c = int(kernel.shape[0])
            i += 3  # the convolution, its batch norm, its ReLU
            continue
        if isinstance(m, nn.MaxPool2d):
            k = m.kernel_size
            out.append(({"class_name": "MaxPooling2D", "config": {
                "name": "pool%d" % n, "pool_size": [k, k], "strides": [k, k],
                "padding": "valid", "data_format": "channels_last"}}, []))
            h, w = h // k, w // k
            i += 1
            continue
        raise ValueError("no Keras layer for %r" % (m,))
    linear = [m for m in net.head if isinstance(m, nn.Linear)][0]
    weight = linear.weight.detach().numpy()  # (classes, c*h*w), channels first
    classes = weight.shape[0]
    # Keras flattens (h, w, c): the input at (y, x, ch) is PyTorch's ch*h*w + y*w + x.
    kernel = weight.reshape(classes, c, h, w).transpose(2, 3, 1, 0).reshape(h * w * c, classes)
    out.append(({"class_name": "Flatten", "config": {"name": "flat",
                                                    "data_format": "channels_last"}}, []))
    out.append(({"class_name": "Dense", "config": {
        "name": "classes", "units": int(classes), "activation": "softmax", "use_bias": True}},
        [("classes/kernel", kernel), ("classes/bias", linear.bias.detach().numpy())]))
    topology = {"class_name": "Sequential", "config": {"name": name,
                                                      "layers": [cfg for cfg, _w in out]},
                "keras_version": "tfjs-layers 4.22.0", "backend": "tensor_flow.js"}
    specs = []
    chunks = []
    for _cfg, weights in out:
        for wname, value in weights:
            a = np.ascontiguousarray(value, "<f4")
            specs.append({"name": wname, "shape": list(a.shape), "dtype": "float32"})
            chunks.append(a.tobytes())
    return topology, specs, b"".join(chunks)
