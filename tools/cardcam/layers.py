"""The trained CardNet (train.py) as a TensorFlow.js layers model: the page's runtime, a
small fraction of onnxruntime-web's size (the bench's camera_bytes row).

    to_half(net, in_h, in_w)              # the weights as float16 holds them
    topology, specs, data = layers_model(net)
    border = input_border(net)

topology is the Keras-style description tf.loadLayersModel reads, specs the weights'
names, shapes and types in the order of data (float16, little-endian; TensorFlow.js makes
them float32 as it loads them: half the bytes to fetch and to keep). The page feeds the
boxes channels-last (N x H x W x 3) scaled as CardNet scales them, (x - 0.5) * 4, and gets
the probabilities of the classes, each box with a border of `border` zeros around it (the
first convolution's padding, written by the page as it fills the input, where a padding
layer costs a copy of every box a frame). What changes on the way:

- each batch norm is folded into the convolution before it (the model runs in eval mode);
- PyTorch pads a convolution by 1 on every side, also with stride 2 on an even size, where
  Keras's "same" pads 0 before and 1 after: a convolution of stride 1 is "same" (then the
  two agree), the first is "valid" on the page's bordered input, and any other would get
  an explicit ZeroPadding2D and "valid";
- weights go from PyTorch's (out, in, kh, kw) to Keras's (kh, kw, in, out), and the linear
  layer's inputs from PyTorch's channels-first flattening to Keras's channels-last one.
"""

import numpy as np
import torch
from torch import nn


def _folded(conv, bn):
    w = conv.weight.detach().numpy().astype(np.float64)
    scale = (bn.weight / (bn.running_var + bn.eps).sqrt()).detach().numpy()
    bias = bn.bias.detach().numpy() - bn.running_mean.detach().numpy() * scale
    if conv.bias is not None:
        bias = bias + conv.bias.detach().numpy() * scale
    return w * scale[:, None, None, None], bias


def to_half(net, in_h, in_w, channels=3):
    """Fold each batch norm of net into its convolution and round every weight to the
    nearest float16, in place: the network then computes exactly what the page's copy
    does (layers_model() stores these values as float16 without a change), so the ONNX
    model, the thresholds and every figure are the page's. The folding is the ONNX
    export's own (its float32 arithmetic): so a member rebuilt from an exported ONNX model
    rounds to the same float16 weights as the network it was exported from. The batch
    norm stays as an exact identity plus the folded bias (mean 0, variance 1, eps 0)."""
    import io

    import onnx
    from onnx import numpy_helper

    buf = io.BytesIO()
    net.eval()
    torch.onnx.export(net, torch.zeros(1, channels, in_h, in_w), buf, opset_version=17,
                      dynamo=False)
    graph = onnx.load_from_string(buf.getvalue()).graph
    init = {i.name: numpy_helper.to_array(i) for i in graph.initializer}
    folded = [(init[n.input[1]], init[n.input[2]]) for n in graph.node if n.op_type == "Conv"]
    mods = list(net.features)
    pairs = [(c, b) for c, b in zip(mods, mods[1:])
             if isinstance(c, nn.Conv2d) and isinstance(b, nn.BatchNorm2d)]
    if len(pairs) != len(folded):
        raise ValueError("the ONNX export did not fold every batch norm")
    with torch.no_grad():
        for (conv, bn), (kernel, bias) in zip(pairs, folded):
            conv.weight.copy_(torch.from_numpy(_half(kernel)))
            if conv.bias is not None:
                conv.bias.zero_()
            bn.weight.fill_(1.0)
            bn.bias.copy_(torch.from_numpy(_half(bias)))
            bn.running_mean.zero_()
            bn.running_var.fill_(1.0)
            bn.eps = 0.0
        for m in net.head:
            if isinstance(m, nn.Linear):
                m.weight.copy_(torch.from_numpy(_half(m.weight.detach().numpy())))
                m.bias.copy_(torch.from_numpy(_half(m.bias.detach().numpy())))
    return net


def _half(a):
    return np.asarray(a, np.float32).astype(np.float16).astype(np.float32)


def input_border(net):
    """The zeros the page writes around each box: the first convolution's padding."""
    return int(net.features[0].padding[0])


def layers_model(net, in_h, in_w, name="cards", channels=3):
    mods = list(net.features)
    out = []  # (layer config, [weights])
    i = 0
    h, w, c = in_h, in_w, channels
    n = 0
    border = input_border(net)
    while i < len(mods):
        m = mods[i]
        if isinstance(m, nn.Conv2d):
            bn = mods[i + 1]
            kernel, bias = _folded(m, bn)
            pad = m.padding[0]
            stride = m.stride[0]
            n += 1
            same = stride == 1 and 2 * pad + 1 == kernel.shape[2] == kernel.shape[3]
            cfg = {"name": "conv%d" % n, "filters": int(kernel.shape[0]),
                   "kernel_size": [int(kernel.shape[2]), int(kernel.shape[3])],
                   "strides": [stride, stride], "padding": "same" if same else "valid",
                   "data_format": "channels_last", "dilation_rate": [1, 1],
                   "activation": "relu", "use_bias": True}
            if not out:  # the first: "valid" on the box and its border (input_border)
                cfg["padding"] = "valid"
                cfg["batch_input_shape"] = [None, in_h + 2 * border, in_w + 2 * border,
                                            channels]
                cfg["dtype"] = "float32"
            elif pad and not same:
                out.append(({"class_name": "ZeroPadding2D", "config": {
                    "name": "pad%d" % n, "padding": [[pad, pad], [pad, pad]],
                    "data_format": "channels_last"}}, []))
            out.append(({"class_name": "Conv2D", "config": cfg},
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
            h16 = a.astype("<f2")
            if not np.array_equal(h16.astype("<f4"), a):
                raise ValueError("%s is not float16 (to_half() first)" % wname)
            specs.append({"name": wname, "shape": list(a.shape), "dtype": "float32",
                          "quantization": {"dtype": "float16", "original_dtype": "float32"}})
            chunks.append(h16.tobytes())
    return topology, specs, b"".join(chunks)
