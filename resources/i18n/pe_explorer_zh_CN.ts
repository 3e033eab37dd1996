<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN" sourcelanguage="en">
    <context>
        <name>ControlPanel</name>
        <message>
            <source>d_model (embedding width)</source>
            <translation>d_model（嵌入宽度）</translation>
        </message>
        <message>
            <source>max_len (positions)</source>
            <translation>max_len（位置数）</translation>
        </message>
        <message>
            <source>base (10000 in the paper)</source>
            <translation>基数（论文中为 10000）</translation>
        </message>
        <message>
            <source>interleaved: sin, cos, sin, cos … (paper)</source>
            <translation>交错：sin, cos, sin, cos …（论文）</translation>
        </message>
        <message>
            <source>concat: all sin, then all cos (TF tutorial)</source>
            <translation>拼接：先全部 sin，再全部 cos（TF 教程）</translation>
        </message>
        <message>
            <source>t2t: concat, tensor2tensor/fairseq frequencies</source>
            <translation>t2t：拼接，tensor2tensor/fairseq 的频率</translation>
        </message>
        <message>
            <source>auto</source>
            <translation>自动</translation>
        </message>
        <message>
            <source>cosine similarity</source>
            <translation>余弦相似度</translation>
        </message>
        <message>
            <source>dot product</source>
            <translation>点积</translation>
        </message>
        <message>
            <source>diverging (CET-D1)</source>
            <translation>发散色图 (CET-D1)</translation>
        </message>
        <message>
            <source>multiply token embedding by √d_model</source>
            <translation>词元嵌入乘以 √d_model</translation>
        </message>
        <message>
            <source>Reset to defaults</source>
            <translation>恢复默认值</translation>
        </message>
        <message>
            <source>Encoding</source>
            <translation>编码</translation>
        </message>
        <message>
            <source>Layout</source>
            <translation>布局</translation>
        </message>
        <message>
            <source>Precision</source>
            <translation>精度</translation>
        </message>
        <message>
            <source>Similarity</source>
            <translation>相似度</translation>
        </message>
        <message>
            <source>Colour map</source>
            <translation>色图</translation>
        </message>
        <message>
            <source>Device</source>
            <translation>设备</translation>
        </message>
    </context>
    <context>
        <name>CurvesView</name>
        <message>
            <source>Solid: sin(p·wᵢ) on channel 2i; dashed: cos(p·wᵢ) on channel 2i+1. Same frequency, a quarter period apart; higher pairs have longer wavelengths λᵢ = 2π/wᵢ.</source>
            <translation>实线：通道 2i 上的 sin(p·wᵢ)；虚线：通道 2i+1 上的 cos(p·wᵢ)。两者频率相同，相差四分之一周期；序号越大的频率对波长越长，λᵢ = 2π/wᵢ。</translation>
        </message>
        <message>
            <source>evenly spread pairs</source>
            <translation>均匀分布的频率对</translation>
        </message>
        <message>
            <source>fastest pairs</source>
            <translation>最快的频率对</translation>
        </message>
        <message>
            <source>slowest pairs</source>
            <translation>最慢的频率对</translation>
        </message>
        <message>
            <source>manual</source>
            <translation>手动</translation>
        </message>
        <message>
            <source>pair indices, e.g. 0, 4, 16</source>
            <translation>频率对序号，例如 0, 4, 16</translation>
        </message>
        <message>
            <source>Pairs</source>
            <translation>频率对</translation>
        </message>
        <message>
            <source>position p</source>
            <translation>位置 p</translation>
        </message>
        <message>
            <source>frequency pair i (each lane spans −1 … 1)</source>
            <translation>频率对 i（每条泳道范围 −1 … 1）</translation>
        </message>
    </context>
    <context>
        <name>Glossary</name>
        <message>
            <source>positional encoding</source>
            <translation>位置编码</translation>
        </message>
        <message>
            <source>token</source>
            <translation>词元</translation>
        </message>
        <message>
            <source>token ID</source>
            <translation>词元 ID</translation>
        </message>
        <message>
            <source>embedding</source>
            <translation>嵌入</translation>
        </message>
        <message>
            <source>token embedding</source>
            <translation>词元嵌入</translation>
        </message>
        <message>
            <source>position</source>
            <translation>位置</translation>
        </message>
        <message>
            <source>dimension</source>
            <translation>维度</translation>
        </message>
        <message>
            <source>channel</source>
            <translation>通道</translation>
        </message>
        <message>
            <source>heatmap</source>
            <translation>热力图</translation>
        </message>
        <message>
            <source>curves</source>
            <translation>曲线</translation>
        </message>
        <message>
            <source>similarity</source>
            <translation>相似度</translation>
        </message>
        <message>
            <source>cosine similarity</source>
            <translation>余弦相似度</translation>
        </message>
        <message>
            <source>dot product</source>
            <translation>点积</translation>
        </message>
        <message>
            <source>sine</source>
            <translation>正弦</translation>
        </message>
        <message>
            <source>cosine</source>
            <translation>余弦</translation>
        </message>
        <message>
            <source>frequency</source>
            <translation>频率</translation>
        </message>
        <message>
            <source>wavelength</source>
            <translation>波长</translation>
        </message>
        <message>
            <source>base</source>
            <translation>基数</translation>
        </message>
        <message>
            <source>model dimension (d_model)</source>
            <translation>模型维度 (d_model)</translation>
        </message>
        <message>
            <source>maximum length (max_len)</source>
            <translation>最大长度 (max_len)</translation>
        </message>
        <message>
            <source>offset</source>
            <translation>偏移量</translation>
        </message>
        <message>
            <source>layout</source>
            <translation>布局</translation>
        </message>
        <message>
            <source>interleaved</source>
            <translation>交错</translation>
        </message>
        <message>
            <source>concatenated</source>
            <translation>拼接</translation>
        </message>
        <message>
            <source>rotation</source>
            <translation>旋转</translation>
        </message>
        <message>
            <source>learned positions</source>
            <translation>可学习的位置嵌入</translation>
        </message>
        <message>
            <source>rotary position embedding (RoPE)</source>
            <translation>旋转位置编码 (RoPE)</translation>
        </message>
        <message>
            <source>one-hot</source>
            <translation>独热</translation>
        </message>
        <message>
            <source>tokenizer</source>
            <translation>分词器</translation>
        </message>
        <message>
            <source>vocabulary</source>
            <translation>词表</translation>
        </message>
        <message>
            <source>sentence</source>
            <translation>句子</translation>
        </message>
        <message>
            <source>presentation mode</source>
            <translation>演示模式</translation>
        </message>
        <message>
            <source>scene</source>
            <translation>场景</translation>
        </message>
        <message>
            <source>deck</source>
            <translation>幻灯片组</translation>
        </message>
        <message>
            <source>export</source>
            <translation>导出</translation>
        </message>
        <message>
            <source>language</source>
            <translation>语言</translation>
        </message>
    </context>
    <context>
        <name>HeatmapView</name>
        <message>
            <source>Each row is one position's encoding vector; each column one channel. Left channels oscillate fast (short wavelength), right channels slowly: a multi-scale ruler.</source>
            <translation>每一行是一个位置的编码向量，每一列是一个通道。左侧通道振荡快（波长短），右侧通道振荡慢：一把多尺度的尺子。</translation>
        </message>
        <message>
            <source>channel (dimension index)</source>
            <translation>通道（维度序号）</translation>
        </message>
        <message>
            <source>position</source>
            <translation>位置</translation>
        </message>
    </context>
    <context>
        <name>MainWindow</name>
        <message>
            <source>PE Explorer: token embeddings + positional encodings</source>
            <translation>PE Explorer：词元嵌入 + 位置编码</translation>
        </message>
        <message>
            <source>PE heatmap</source>
            <translation>位置编码热力图</translation>
        </message>
        <message>
            <source>Frequency curves</source>
            <translation>频率曲线</translation>
        </message>
        <message>
            <source>Position similarity</source>
            <translation>位置相似度</translation>
        </message>
        <message>
            <source>Controls</source>
            <translation>控制面板</translation>
        </message>
        <message>
            <source>&amp;View</source>
            <translation>视图(&amp;V)</translation>
        </message>
        <message>
            <source>&amp;Reset settings</source>
            <translation>重置设置(&amp;R)</translation>
        </message>
        <message>
            <source>&amp;Settings</source>
            <translation>设置(&amp;S)</translation>
        </message>
        <message>
            <source>&amp;Quit</source>
            <translation>退出(&amp;Q)</translation>
        </message>
        <message>
            <source>&amp;File</source>
            <translation>文件(&amp;F)</translation>
        </message>
        <message>
            <source>Device: chosen when a full-size export runs</source>
            <translation>设备：在进行全尺寸导出时选择</translation>
        </message>
        <message>
            <source>position %1, channel %2: PE = %3   w = %4   wavelength 2π/w = %5 positions</source>
            <translation>位置 %1，通道 %2：PE = %3   w = %4   波长 2π/w = %5 个位置</translation>
        </message>
        <message>
            <source>p = %1, q = %2, offset k = %3: %4 = %5</source>
            <translation>p = %1，q = %2，偏移量 k = %3：%4 = %5</translation>
        </message>
        <message>
            <source>Saved settings were unreadable; defaults restored</source>
            <translation>保存的设置无法读取，已恢复默认值</translation>
        </message>
        <message>
            <source>Settings reset to defaults</source>
            <translation>设置已恢复为默认值</translation>
        </message>
    </context>
    <context>
        <name>SimilarityView</name>
        <message>
            <source>S[p, q] = PE(p)·PE(q). Every diagonal is constant: the similarity depends only on the offset k = q − p, shown on the right as f(k) = Σᵢ cos(k·wᵢ).</source>
            <translation>S[p, q] = PE(p)·PE(q)。每条对角线上的值都相同：相似度只取决于偏移量 k = q − p，右侧显示为 f(k) = Σᵢ cos(k·wᵢ)。</translation>
        </message>
        <message>
            <source>position q</source>
            <translation>位置 q</translation>
        </message>
        <message>
            <source>position p</source>
            <translation>位置 p</translation>
        </message>
        <message>
            <source>offset k = q − p</source>
            <translation>偏移量 k = q − p</translation>
        </message>
        <message>
            <source>cosine similarity</source>
            <translation>余弦相似度</translation>
        </message>
        <message>
            <source>dot product</source>
            <translation>点积</translation>
        </message>
    </context>
    <context>
        <name>SliderRow</name>
        <message>
            <source>“%1” is not a number</source>
            <translation>“%1” 不是数字</translation>
        </message>
        <message>
            <source>“%1” is not a whole number</source>
            <translation>“%1” 不是整数</translation>
        </message>
        <message>
            <source>%1 is outside the allowed range %2 – %3; kept %4</source>
            <translation>%1 超出允许范围 %2 – %3；保留 %4</translation>
        </message>
    </context>
</TS>
